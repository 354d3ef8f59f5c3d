/** Bronze layer: sources into raw tables with lineage, rescued data and quarantine. */
package dev.sluice.bronze;
