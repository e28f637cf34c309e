/** The tester-client sample: an embedded echo server and the main that compares the modes. */
package dev.flow.samples.tester;
