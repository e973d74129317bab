package io.zklock.layerfixture;

import java.util.List;

import io.zklock.layerfixture.inspection.Door;
import io.zklock.layerfixture.internal.Machine;
import org.apache.curator.framework.CuratorFramework;

/**
 * Breaks "no internal type in a public signature": a public field of {@link Machine}; a public
 * method returning {@link Door}s of the inspection, which is API and allowed; uses the machine in a
 * private method too, which is allowed; and depends on Curator.
 */
public class Api {

	/** The machine, in a public signature. */
	public final Machine machine = new Machine();

	/** Curator, a package that {@code LayerRules.noDependencyOn} can forbid. */
	public CuratorFramework client;

	/** An inspection type (API, allowed) as a type argument of a public return type. */
	public List<Door> doors() {
		return List.of();
	}

	/** The engine used privately: allowed. */
	private Door quietly() {
		return new Machine().door();
	}

}
