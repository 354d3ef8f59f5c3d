/** The commit loop: optimistic transactions, put-if-absent commits and Delta conflict rules. */
package dev.sluice.table.internal.txn;
