package io.zklock.autoconfigure.shutdown;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

import org.apache.curator.framework.CuratorFramework;

import io.zklock.annotation.DistributedLock;
import io.zklock.autoconfigure.LockedMethodsAutoConfiguration;
import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockAcquisitionException;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.ReleaseResult;
import io.zklock.lock.event.LockListener;
import io.zklock.lock.event.LockTarget;

import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The application {@link GracefulShutdownTests} stops with SIGTERM mid-body, in a child JVM. It
 * prints one line per event on standard output, with the wall-clock millisecond where timing
 * matters:
 * <ul>
 * <li>{@code SESSION <id>} once connected;</li>
 * <li>{@code BODY-STARTED} / {@code BODY-DONE <ms>}: a locked method on {@code orders/1} that
 * works for {@code --body-millis} after it started;</li>
 * <li>{@code RELEASED <lock path> <result> <ms>}: every release, after its lock node is deleted;</li>
 * <li>{@code ATTEMPT <n> GRANTED} / {@code ATTEMPT <n> REFUSED <message>}: a thread that tries a
 * new lock every 20 ms once the body runs;</li>
 * <li>{@code WAITING orders/2}: a thread that waits, without limit, for the lock on
 * {@code orders/2}, which the test holds: its waiting lock node is left for the session's end.</li>
 * </ul>
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@ImportAutoConfiguration({ AopAutoConfiguration.class, ZkLockAutoConfiguration.class,
		LockedMethodsAutoConfiguration.class })
class GracefulShutdownApp {

	static void print(String line) {
		synchronized (System.out) {
			System.out.println(line);
			System.out.flush();
		}
	}

	@Bean
	Orders orders() {
		return new Orders();
	}

	@Bean
	LockListener releases() {
		return new LockListener() {

			@Override
			public void onReleased(LockTarget lock, long fencingToken, Duration heldFor, ReleaseResult result) {
				print("RELEASED " + lock.lockPath() + " " + result + " " + System.currentTimeMillis());
			}

		};
	}

	@Bean
	CommandLineRunner work(Orders orders, ILockByCurator locks, CuratorFramework client) {
		return (args) -> {
			print("SESSION " + Long.toHexString(client.getZookeeperClient().getZooKeeper().getSessionId()));
			Thread waiter = new Thread(() -> {
				print("WAITING orders/2");
				try (LockHandle lock = locks.acquire("orders/2", LockMode.EXCLUSIVE)) {
					print("WAITER-GRANTED orders/2");
				}
				catch (RuntimeException ex) {
					print("WAITER-ENDED " + ex.getClass().getSimpleName());
				}
			}, "orders-2-waiter");
			waiter.setDaemon(true);
			waiter.start();
			Thread body = new Thread(orders::work, "orders-1-body");
			body.start();
			Thread attempts = new Thread(() -> {
				for (int attempt = 1; attempt < 10_000; attempt++) {
					try {
						locks.tryAcquire("other/" + attempt, LockMode.EXCLUSIVE, Duration.ZERO)
							.ifPresent(LockHandle::release);
						print("ATTEMPT " + attempt + " GRANTED");
					}
					catch (LockAcquisitionException ex) {
						print("ATTEMPT " + attempt + " REFUSED " + ex.getMessage());
					}
					LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
				}
			}, "attempts");
			attempts.setDaemon(true);
			attempts.start();
		};
	}

	static class Orders {

		@DistributedLock(path = "orders/1")
		public void work() {
			print("BODY-STARTED");
			long until = System.nanoTime() + Duration.ofMillis(Long.getLong("body-millis", 3000)).toNanos();
			while (System.nanoTime() < until) {
				LockSupport.parkNanos(until - System.nanoTime());
			}
			print("BODY-DONE " + System.currentTimeMillis());
		}

	}

	public static void main(String[] args) {
		SpringApplication application = new SpringApplication(GracefulShutdownApp.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.run(args);
		LockSupport.park();   // an application that runs until stopped
	}

}
