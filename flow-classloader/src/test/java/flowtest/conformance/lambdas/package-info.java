/**
 * Conformance fixtures for lambdas and method references: receiver kinds, private and nestmate
 * targets, boxing/unboxing/widening adaptations, bridges, serializable lambdas and identity, each
 * pure and with an await inside the body.
 */
package flowtest.conformance.lambdas;
