/**
 * The connection check both of zklock's health indicators share (Spring Boot 4's and 3.5's),
 * free of Spring Boot types; compiled with the Boot 3.5 classes (lock-autoconfigure/boot3) and
 * carried by this jar. Internal: no compatibility promise.
 */
@NullMarked
package io.zklock.health.internal;

import org.jspecify.annotations.NullMarked;
