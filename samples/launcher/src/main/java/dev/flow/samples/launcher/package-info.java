/**
 * The command line and start-up shared by the sample protocol servers: {@link
 * dev.flow.samples.launcher.SampleServer} runs a {@link dev.flow.samples.launcher.SampleProtocol}'s
 * blocking-style session handler in sync or continuation mode.
 */
package dev.flow.samples.launcher;
