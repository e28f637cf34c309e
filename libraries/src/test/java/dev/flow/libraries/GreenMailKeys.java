package dev.flow.libraries;

import com.icegreen.greenmail.util.GreenMail;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyStore;

/**
 * GreenMail's self-signed test key and certificate ({@value #RESOURCE} in its jar, alias {@code greenmail}, password
 * {@value #PASSWORD}), which the tests' TLS servers use and their clients trust. Stateless.
 */
final class GreenMailKeys {

    static final String RESOURCE = "greenmail.p12";
    static final String PASSWORD = "changeit";

    private GreenMailKeys() {
    }

    /** The key store, loaded. */
    static KeyStore keyStore() throws IOException, GeneralSecurityException {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = resource()) {
            keys.load(in, PASSWORD.toCharArray());
        }
        return keys;
    }

    /** The key and its certificate. */
    static KeyStore.PrivateKeyEntry key() throws IOException, GeneralSecurityException {
        return (KeyStore.PrivateKeyEntry) keyStore().getEntry("greenmail",
                new KeyStore.PasswordProtection(PASSWORD.toCharArray()));
    }

    /** A copy of the key store in a new temporary file, for servers that take a file; the caller deletes it. */
    static Path copy() throws IOException {
        Path store = Files.createTempFile("greenmail", ".p12");
        try (InputStream in = resource()) {
            Files.copy(in, store, StandardCopyOption.REPLACE_EXISTING);
        }
        return store;
    }

    private static InputStream resource() {
        return GreenMail.class.getClassLoader().getResourceAsStream(RESOURCE);
    }
}
