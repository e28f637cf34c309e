/** A fixture that resumes JavaFlow continuations through a method reference, which the loader refuses. */
package flowtest.owncontinuationref;
