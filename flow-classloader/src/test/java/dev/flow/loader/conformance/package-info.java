/** The conformance suite: every pattern run loaded normally and through the loader, in every mode. */
package dev.flow.loader.conformance;
