/** Configuration model: YAML loading, validation with path-precise messages, env interpolation. */
package dev.sluice.config;
