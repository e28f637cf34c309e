/**
 * Class-initialisation conformance fixtures: when a class named by {@code new} is initialised
 * relative to the evaluation of the constructor's arguments.
 */
package flowtest.conformance.init;
