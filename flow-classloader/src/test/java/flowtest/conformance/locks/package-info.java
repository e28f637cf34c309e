/** Owner-based locks ({@code java.util.concurrent.locks.Lock}) held and released around awaits. */
package flowtest.conformance.locks;
