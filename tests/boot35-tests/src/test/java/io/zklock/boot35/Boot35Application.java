package io.zklock.boot35;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A Boot 3.5 web application with Boot 3.5's actuator and zklock's starter, locking its
 * inventory with {@code @DistributedLock}.
 */
@SpringBootApplication
public class Boot35Application {

	@Bean
	FencedStock fencedStock() {
		return new FencedStock();
	}

	@Bean
	Inventory inventory(FencedStock fencedStock) {
		return new Inventory(fencedStock);
	}

}
