/** Fixtures for constructor suspension points: allocations replaced by a static factory that suspends. */
package flowtest.ctors;
