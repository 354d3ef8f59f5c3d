/**
 * The long-running service behind {@code sluice serve}: Quartz fires each scheduled pipeline as an
 * availableNow run, runs downstream pipelines after their upstreams succeed, retries failures, keeps
 * continuous ({@code processing_time}) pipelines running, and stops gracefully.
 */
package dev.sluice.orchestration.service;
