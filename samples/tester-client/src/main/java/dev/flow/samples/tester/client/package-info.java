/** The tester client: plain synchronous protocol code, run unchanged in sync and continuation mode. */
package dev.flow.samples.tester.client;
