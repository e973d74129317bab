package io.zklock.autoconfigure.embedded;

import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;

import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * A command-line application (no web server) that uses the embedded ZooKeeper server: it
 * takes one lock, prints its fencing token and returns from {@code main} without closing its
 * context, as such applications do. {@link EmbeddedServerJvmExitTests} runs it in a child JVM,
 * which must then exit by itself.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@ImportAutoConfiguration({ ZkLockEmbeddedServerAutoConfiguration.class, ZkLockAutoConfiguration.class })
class CommandLineLockApp {

	static final String DONE = "CommandLineLockApp locked 'command-line' with fencing token ";

	@Bean
	CommandLineRunner lockOnce(ILockByCurator locks) {
		return (args) -> {
			try (LockHandle lock = locks.acquire("command-line", LockMode.EXCLUSIVE)) {
				System.out.println(DONE + lock.fencingToken());
			}
		};
	}

	public static void main(String[] args) {
		SpringApplication application = new SpringApplication(CommandLineLockApp.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.run(args);
	}

}
