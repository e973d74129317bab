package io.zklock.sample.inventory;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link InventoryStore}.
 */
class InventoryStoreTests {

	@TempDir
	Path directory;

	@Test
	void shouldReadNothingForUnknownSku() {
		assertThat(new InventoryStore(this.directory).read("unknown")).isEmpty();
	}

	@Test
	void shouldReadWhatAnotherStoreOnTheSameDirectoryWrote() {
		new InventoryStore(this.directory).write("sku-1", 7, 100L);
		assertThat(new InventoryStore(this.directory).read("sku-1")).contains(new StockRecord(7, 100));
	}

	@Test
	void shouldAcceptGreaterFencingTokens() {
		InventoryStore store = new InventoryStore(this.directory);
		store.write("sku-1", 10, 100L);
		store.write("sku-1", 9, 101L);
		assertThat(store.read("sku-1")).contains(new StockRecord(9, 101));
		assertThat(store.getWriteCount()).isEqualTo(2);
		assertThat(store.getFencingViolationCount()).isZero();
	}

	@Test
	void shouldRefuseAndCountFencingTokenNotGreaterThanStoredOne() {
		InventoryStore store = new InventoryStore(this.directory);
		store.write("sku-1", 10, 100L);
		assertThatExceptionOfType(StaleFencingTokenException.class).isThrownBy(() -> store.write("sku-1", 9, 100L))
			.withMessageContaining("fencing token 100 is not greater than the stored token 100");
		assertThatExceptionOfType(StaleFencingTokenException.class).isThrownBy(() -> store.write("sku-1", 9, 99L))
			.satisfies((ex) -> {
				assertThat(ex.getSku()).isEqualTo("sku-1");
				assertThat(ex.getFencingToken()).isEqualTo(99);
				assertThat(ex.getStoredFencingToken()).isEqualTo(100);
			});
		assertThat(store.read("sku-1")).contains(new StockRecord(10, 100));
		assertThat(store.getFencingViolationCount()).isEqualTo(2);
	}

	@Test
	void shouldWriteWithoutTokenUncheckedAndKeepStoredToken() {
		InventoryStore store = new InventoryStore(this.directory);
		store.write("sku-1", 10, 100L);
		store.write("sku-1", 8, null);
		assertThat(store.read("sku-1")).contains(new StockRecord(8, 100));
		assertThat(store.getFencingViolationCount()).isZero();
	}

	@Test
	void shouldResetStockAndTokenWhateverWasStored() {
		InventoryStore store = new InventoryStore(this.directory);
		store.write("sku-1", 10, 100L);
		store.reset("sku-1", 50, 3L);
		assertThat(store.read("sku-1")).contains(new StockRecord(50, 3));
		store.reset("sku-1", 40, null);
		assertThat(store.read("sku-1")).contains(new StockRecord(40, 0));
	}

	@Test
	void shouldRejectInvalidSku() {
		InventoryStore store = new InventoryStore(this.directory);
		assertThatIllegalArgumentException().isThrownBy(() -> store.read("../etc"))
			.withMessageContaining("SKU '../etc' is invalid");
		assertThatIllegalArgumentException().isThrownBy(() -> store.write("", 1, null));
	}

	@Test
	void shouldRejectNegativeStock() {
		InventoryStore store = new InventoryStore(this.directory);
		assertThatIllegalArgumentException().isThrownBy(() -> store.write("sku-1", -1, null))
			.withMessage("Stock must not be negative, was -1");
		assertThat(store.read("sku-1")).isEmpty();
	}

}
