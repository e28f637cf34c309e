/** Scheduler behaviour with real suspensions: races, close, timeouts, interrupts and cancellation. */
package dev.flow.loader.scheduler;
