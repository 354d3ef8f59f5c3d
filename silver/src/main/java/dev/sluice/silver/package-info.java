/** Silver layer: casts, expectations, deduplication, MERGE by key (SCD1/SCD2). */
package dev.sluice.silver;
