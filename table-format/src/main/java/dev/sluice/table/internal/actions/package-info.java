/** One record per Delta log action, and the JSON parser that reads and writes them. */
package dev.sluice.table.internal.actions;
