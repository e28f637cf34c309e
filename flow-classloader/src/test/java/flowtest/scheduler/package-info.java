/** Fixtures for the scheduler tests: flows that suspend on timed waits, sleeps, futures and interrupts. */
package flowtest.scheduler;
