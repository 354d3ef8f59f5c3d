/**
 * Table maintenance: OPTIMIZE (bin-packing, Z-order, clustering), VACUUM and expired-log cleanup. The public
 * builders ({@code Table.optimize()}, {@code Table.vacuum()}, {@code Table.cleanUpLog()}) hold the options; the
 * planning rules live here.
 */
package dev.sluice.table.internal.maintenance;
