package io.zklock.layerfixture;

import io.zklock.layerfixture.internal.Machine;
import org.apache.curator.framework.CuratorFramework;

/** Breaks "the API imports no sub-package" (it uses {@link Machine}) and depends on Curator. */
public class Api {

	/** The machine the API should not know. */
	public final Machine machine = new Machine();

	/** Curator, a package that {@code LayerRules.noDependencyOn} can forbid. */
	public CuratorFramework client;

}
