/* Mock: no API change headers. */
