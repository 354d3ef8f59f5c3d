/**
 * The service's HTTP face: a JSON API over the pipelines and their tables, Prometheus metrics and a dashboard,
 * started by {@code sluice serve --http HOST:PORT} ({@link dev.sluice.orchestration.http.SluiceHttpServer}).
 * It reads the service through {@link dev.sluice.orchestration.http.ServiceView}.
 */
package dev.sluice.orchestration.http;
