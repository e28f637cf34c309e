/**
 * Initialisation-order fixtures: each static initializer runs once per class loader, so the test
 * that uses them makes a fresh loader per run.
 */
package flowtest.order;
