package io.zklock.autoconfigure;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link ConnectString}.
 */
class ConnectStringTests {

	@Test
	void shouldParseServersWithDefaultPortIpv6AndChroot() {
		assertThat(ConnectString.parse("zk1:2181, zk2,[::1]:2182/apps/orders").servers())
			.extracting(ConnectString.Server::toString)
			.containsExactly("zk1:2181", "zk2:2181", "[::1]:2182");
		assertThat(ConnectString.parse("127.0.0.1:2181/").servers()).hasSize(1);
	}

	@Test
	void shouldNameThePortThatIsNotANumber() {
		assertThatIllegalArgumentException().isThrownBy(() -> ConnectString.parse("not-a-host:notaport"))
			.withMessage("in server 'not-a-host:notaport', port 'notaport' is not a number");
	}

	@Test
	void shouldNameTheBadPartOfEachKindOfMistake() {
		assertThatIllegalArgumentException().isThrownBy(() -> ConnectString.parse("  "))
			.withMessage("it is empty");
		assertThatIllegalArgumentException().isThrownBy(() -> ConnectString.parse(" , "))
			.withMessage("it names no server");
		assertThatIllegalArgumentException().isThrownBy(() -> ConnectString.parse("zk1:2181,zk2:99999"))
			.withMessage("in server 'zk2:99999', port 99999 is not between 1 and 65535");
		assertThatIllegalArgumentException().isThrownBy(() -> ConnectString.parse("zk1:"))
			.withMessage("in server 'zk1:', the port after ':' is missing");
		assertThatIllegalArgumentException().isThrownBy(() -> ConnectString.parse(":2181"))
			.withMessage("in server ':2181', the host is missing");
		assertThatIllegalArgumentException().isThrownBy(() -> ConnectString.parse("zk 1:2181"))
			.withMessage("in server 'zk 1:2181', host 'zk 1' holds characters a host name cannot have");
		assertThatIllegalArgumentException().isThrownBy(() -> ConnectString.parse("::1:2181"))
			.withMessageContaining("write an IPv6 address in brackets, such as '[::1]:2181'");
		assertThatIllegalArgumentException().isThrownBy(() -> ConnectString.parse("zk1:2181/apps/"))
			.withMessageStartingWith("its chroot '/apps/' is invalid: ");
		assertThatIllegalArgumentException().isThrownBy(() -> ConnectString.parse("http://zk1:2181"))
			.withMessage("it is a URL, and a connect string has no scheme ('http://')");
	}

	@Test
	void shouldNameAPlaceholderThatNothingResolves() {
		assertThatIllegalArgumentException().isThrownBy(() -> ConnectString.parse("${ZOOKEEPER_CONNECT_STRING}"))
			.withMessage("it holds the placeholder '${ZOOKEEPER_CONNECT_STRING}', which nothing resolves: set "
					+ "ZOOKEEPER_CONNECT_STRING (an environment variable or a property), or give the placeholder a "
					+ "default");
	}

}
