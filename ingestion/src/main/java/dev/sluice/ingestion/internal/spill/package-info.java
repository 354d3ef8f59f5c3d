/**
 * Micro-batch rows that outgrow their memory budget: {@link dev.sluice.ingestion.internal.spill.RowBuffer} keeps
 * rows in the heap up to the budget, then writes them to a local spill file and reads them back on iteration.
 */
package dev.sluice.ingestion.internal.spill;
