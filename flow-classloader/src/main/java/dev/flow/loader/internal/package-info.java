/**
 * The class loader's analysis and rewriting (ASM) and its bridge to the JavaFlow enhancer. Not an API.
 */
package dev.flow.loader.internal;
