/**
 * Plain mail client code over unmodified libraries (Commons Net's {@code SMTPClient} and {@code POP3Client},
 * Jakarta Mail as Eclipse Angus), handed Flow's socket factory, which {@code MailLibrariesTest} runs loaded
 * normally and through a {@code ContinuationClassLoader} against GreenMail. Each session sends one message to
 * a mailbox of its own and reads it back; results go back as strings that do not depend on the session's id.
 */
package flowtest.mail;
