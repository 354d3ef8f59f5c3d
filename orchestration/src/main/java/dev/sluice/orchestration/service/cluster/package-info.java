/**
 * The cluster store of {@code sluice serve}: Quartz's JDBC job store on PostgreSQL with {@code isClustered}, its
 * tables and the run-history table (created and upgraded by versioned migrations), and the run history every node
 * and the CLI read. {@link dev.sluice.orchestration.service.cluster.ClusterStore} is the entry point.
 */
package dev.sluice.orchestration.service.cluster;
