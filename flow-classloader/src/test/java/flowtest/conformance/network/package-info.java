/**
 * Conformance fixtures: the JDK's network calls that wait inside the JDK (connects, name lookups, URL
 * connections, blocking channels, a {@code Scanner} over a socket), reported at their call site, and their
 * forms that provably do not wait, which are not.
 */
package flowtest.conformance.network;
