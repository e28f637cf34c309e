/** Server-side handlers of the sample, plain blocking code run as flows by {@code FlowServer}. */
package dev.flow.samples.tester.server;
