/** Gold layer: stream-static joins, aggregates, output modes realised as MERGE or overwrite. */
package dev.sluice.gold;
