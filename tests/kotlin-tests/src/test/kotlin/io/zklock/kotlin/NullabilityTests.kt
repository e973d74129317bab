package io.zklock.kotlin

import io.zklock.autoconfigure.ZkLockProperties
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import kotlin.reflect.KType
import kotlin.reflect.typeOf

/**
 * Kotlin sees zklock's real nullability: its main packages are @NullMarked (JSpecify), so a @Nullable
 * return is `T?` and any other return is `T`, never the platform type `T!` of an unannotated Java API.
 * [staticTypeOf] gives the type the Kotlin compiler inferred for an expression, as compiled.
 */
class NullabilityTests {

	@Test
	fun `a nullable return is read as nullable`() {
		val properties = ZkLockProperties()
		// @Nullable String getInstanceId(): unset by default
		assertThat(staticTypeOf(properties.instanceId).toString()).isEqualTo("kotlin.String?")
		val length: Int = properties.instanceId?.length ?: 0
		assertThat(length).isZero()
	}

	@Test
	fun `any other return is read as non-null`() {
		val properties = ZkLockProperties()
		assertThat(staticTypeOf(properties.rootPath).toString()).isEqualTo("kotlin.String")
	}

	private inline fun <reified T> staticTypeOf(@Suppress("UNUSED_PARAMETER") value: T): KType = typeOf<T>()

}
