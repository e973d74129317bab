package com.example.orders;

import java.time.Duration;
import java.util.Optional;

import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;

import org.springframework.stereotype.Component;

@Component
public class ReportJob {

	private final ILockByCurator locks;

	public ReportJob(ILockByCurator locks) {
		this.locks = locks;
	}

	// rebuilds the daily report, unless another instance is doing it right now
	public boolean rebuildIfIdle() {
		Optional<LockHandle> lock = this.locks.tryAcquire("reports/daily", LockMode.EXCLUSIVE, Duration.ZERO);
		if (lock.isEmpty()) {
			return false;
		}
		try (LockHandle held = lock.get()) {
			rebuild(held.fencingToken());
			return true;
		}
	}

	private void rebuild(long fencingToken) {
		// write the report, passing the fencing token to the store
	}

}
