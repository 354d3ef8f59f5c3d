/** Benchmarks printing JSON figures. */
package dev.sluice.bench;
