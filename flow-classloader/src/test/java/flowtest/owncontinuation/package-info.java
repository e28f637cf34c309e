/** A fixture that runs JavaFlow continuations itself, which the loader refuses. */
package flowtest.owncontinuation;
