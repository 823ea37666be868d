# Prometheus image for machines with no registry: FROM scratch plus this machine's
# prometheus (Debian's package) and promtool, with the web UI's assets, assembled into
# rootfs/ by deploy/build-images.sh. Its settings come from deploy/prometheus/ (mounted
# by the compose file); data in /prometheus, uid 65534 (nobody), port 9090.
FROM scratch
COPY rootfs/ /
COPY --chown=65534:65534 data/ /prometheus/
ENV PATH=/usr/local/bin:/bin
USER 65534:65534
WORKDIR /prometheus
VOLUME /prometheus
EXPOSE 9090
ENTRYPOINT ["prometheus"]
CMD ["--config.file=/etc/prometheus/prometheus.yml", "--storage.tsdb.path=/prometheus", \
     "--web.listen-address=0.0.0.0:9090"]
