# Chorus image for machines with no registry: FROM scratch plus the binaries and the
# shared libraries `ldd` names, assembled into rootfs/ by deploy/build-images.sh.
# The published image is built by deploy/Dockerfile instead.
FROM scratch
COPY rootfs/ /
ENV PATH=/usr/local/bin:/bin \
    CHORUS_LOG=info \
    MIMALLOC_ARENA_EAGER_COMMIT=0 \
    MIMALLOC_PURGE_DELAY=0
USER 10001:10001
WORKDIR /tmp
EXPOSE 8080 7301 7302
CMD ["chorus", "--help"]
