/** Fixtures for static suspension points called through subclasses: inherited and hidden statics. */
package flowtest.statics;
