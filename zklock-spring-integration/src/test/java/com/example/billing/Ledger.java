package com.example.billing;

import java.util.List;

/**
 * What the leader writes to: your store, which keeps the newest fencing token it has accepted and
 * refuses a write that carries an older one (docs/fencing.md shows such a store on JDBC and on
 * ZooKeeper).
 */
public interface Ledger {

	void writeAsLeader(List<String> entries, long fencingToken);

}
