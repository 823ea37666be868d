# Redis image for machines with no registry: FROM scratch plus this machine's
# redis-server and redis-cli and the shared libraries `ldd` names, assembled into
# rootfs/ by deploy/build-images.sh. Same layout as the official image: binaries in
# /usr/local/bin, data in /data, uid 999, port 6379.
FROM scratch
COPY rootfs/ /
# COPY makes files root-owned; the data directory belongs to the redis user.
COPY --chown=999:999 data/ /data/
ENV PATH=/usr/local/bin:/bin
USER 999:999
WORKDIR /data
VOLUME /data
EXPOSE 6379
CMD ["redis-server", "--protected-mode", "no"]
