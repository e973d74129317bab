package io.zklock.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The zklock sample application: a small inventory service whose stock lives in files that
 * several instances share, kept consistent by {@code @DistributedLock}.
 *
 * <p>
 * By default it starts an in-process ZooKeeper server
 * ({@code zklock.zookeeper.embedded.enabled=true}), so it runs with nothing installed. Point
 * further instances at it with {@code --zklock.zookeeper.embedded.enabled=false
 * --zklock.zookeeper.connect-string=127.0.0.1:<port>} and the same
 * {@code --sample.inventory.dir}.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class SampleApplication {

	/**
	 * Starts the application.
	 * @param args the command-line arguments, such as {@code --server.port=8081}
	 */
	public static void main(String[] args) {
		SpringApplication.run(SampleApplication.class, args);
	}

}
