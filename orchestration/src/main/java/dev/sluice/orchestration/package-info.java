/** The service: the sluice CLI, the pipeline graph and Quartz schedules. */
package dev.sluice.orchestration;
