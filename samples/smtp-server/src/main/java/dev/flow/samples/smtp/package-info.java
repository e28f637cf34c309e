/**
 * An SMTP sample server (RFC 5321 with STARTTLS, PIPELINING, SIZE and 8BITMIME): {@link
 * dev.flow.samples.smtp.SmtpServer} is the command line, {@link dev.flow.samples.smtp.MailStore} where
 * accepted messages go; the session code is in {@code protocol}, the package loaded through the {@code
 * ContinuationClassLoader} in continuation mode.
 */
package dev.flow.samples.smtp;
