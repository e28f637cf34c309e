/**
 * The SMTP session code in plain blocking style. In continuation mode this package is loaded through
 * the {@code ContinuationClassLoader}: every {@code Transport} call below, the STARTTLS upgrade
 * included, suspends the session instead of blocking a thread.
 */
package dev.flow.samples.smtp.protocol;
