/** A sample protocol whose sessions a stop cannot end, for the stop watchdog's test. */
package dev.flow.samples.hostile.stubborn;
