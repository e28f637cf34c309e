/** The Flow Maven plugin: goals {@code instrument} and {@code verify}. */
package dev.flow.maven;
