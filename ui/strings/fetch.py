"""The sidebar's "Add a model…" panel: a Hub id, its size check, the download's progress (ui/fetch_panel.py)."""

STRINGS: dict[str, dict[str, str]] = {
    "fetch.open": {"en": "Add a model…", "zh": "添加模型……"},
    "fetch.intro": {
        "en": "A published model by its Hugging Face name. The size is checked first; only config.json, the "
        "safetensors weights and tokenizer.json are downloaded, into the Hugging Face cache.",
        "zh": "按 Hugging Face 上的名称添加已发布的模型。先检查大小；只下载加载所需的文件（配置、safetensors "
        "权重和分词器），存入 Hugging Face 缓存。",
    },
    "fetch.off": {
        "en": "Downloads from the page are off here: this browser is not on the server's own machine (it comes over "
        "the network or through a proxy), and a student must not fill a class server's disk. The teacher can run "
        "`{cmd}` on the server, or start it with `{env}=1`.",
        "zh": "此处不能从页面下载：这个浏览器不在服务器本机上（经网络或代理访问），学生不应占满课堂服务器的磁盘。"
        "教师可以在服务器上运行 `{cmd}`，或用 `{env}=1` 启动应用。",
    },
    "fetch.repo": {"en": "Hub id (org/name)", "zh": "模型名称（组织/名称）"},
    "fetch.revision": {"en": "Revision (optional)", "zh": "版本（可选）"},
    "fetch.revision_help": {
        "en": "A branch, a tag or a commit; empty is main. Pythia's training checkpoints are branches: step1000, "
        "step3000, … step143000 (main is step143000).",
        "zh": "分支、标签或提交（commit）；留空即 main。Pythia 的训练检查点是分支：step1000、step3000……step143000（main 即 step143000）。",
    },
    "fetch.check": {"en": "Check size", "zh": "检查大小"},
    "fetch.checking": {"en": "Asking the Hub about {repo}…", "zh": "正在向 Hub 查询 {repo}……"},
    "fetch.network": {
        "en": "The server cannot reach Hugging Face, where models are downloaded from (in China it is often "
        "blocked). Ask the person who runs the server to stop it and start it again through a mirror: "
        "`HF_ENDPOINT=https://<mirror> make run`, e.g. `HF_ENDPOINT={mirror} make run` (`{mirror}` is a mirror "
        "commonly used in China). Models already downloaded still work.",
        "zh": "服务器连不上 Hugging Face（下载模型的网站，在国内常被屏蔽）。请让运行服务器的人先停止服务器，再通过"
        "镜像站重新启动：`HF_ENDPOINT=https://<镜像站> make run`，例如 `HF_ENDPOINT={mirror} make run`"
        "（`{mirror}` 是国内常用的镜像站）。已经下载的模型仍可照常使用。",
    },
    "fetch.network_detail": {
        "en": "For the administrator: the server tried {endpoint} and failed ({why}). HF_ENDPOINT is read only when "
        "the server starts (`make run`, `make replicas`, the container's environment), so changing it needs a "
        "restart; a mirror may also need `HF_HUB_DISABLE_XET=1`. `python -m models.fetch org/name` on the server "
        "shows the same error in a shell.",
        "zh": "给管理员：服务器尝试连接 {endpoint}，失败（{why}）。HF_ENDPOINT 只在服务器启动时读取（`make run`、"
        "`make replicas` 或容器的环境变量），修改后须重启；有的镜像站还需要 `HF_HUB_DISABLE_XET=1`。在服务器上运行 "
        "`python -m models.fetch org/name` 可在终端里看到同样的错误。",
    },
    "fetch.check_failed": {
        "en": "The check ended without a result. Run `python -m models.fetch org/name --check` on the server to see why.",
        "zh": "检查没有得到结果。请在服务器上运行 `python -m models.fetch org/name --check` 查看原因。",
    },
    "fetch.bad_id": {
        "en": "Write the model's Hub id as org/name, as on its page, e.g. Qwen/Qwen3-0.6B or EleutherAI/pythia-70m.",
        "zh": "请按模型页面上的写法输入“组织/名称”，例如 Qwen/Qwen3-0.6B 或 EleutherAI/pythia-70m。",
    },
    "fetch.bad_revision": {
        "en": "A revision has letters, digits, '.', '_', '-' and '/' only (e.g. step3000).",
        "zh": "版本只能包含字母、数字以及 '.'、'_'、'-'、'/'（例如 step3000）。",
    },
    "fetch.fits": {
        "en": "{name}: {family} {arch}, {params} parameters, {n} files, {total} ({todo} to download). "
        "Fits: {disk} disk and {memory} memory free.",
        "zh": "{name}：{family} {arch}，{params} 个参数，{n} 个文件，共 {total}（需下载 {todo}）。"
        "可以放下：磁盘剩余 {disk}，内存剩余 {memory}。",
    },
    "fetch.already": {
        "en": "Already downloaded: pick it in the model list above.",
        "zh": "已经下载：请在上方模型列表中选择。",
    },
    "fetch.download": {"en": "Download ({size})", "zh": "下载（{size}）"},
    "fetch.starting": {"en": "Starting the download of {name}…", "zh": "正在开始下载 {name}……"},
    "fetch.progress": {
        "en": "{name}: {done} of {total} · {rate}/s · {left} left",
        "zh": "{name}：{done} / {total} · {rate}/秒 · 剩余 {left}",
    },
    "fetch.cancel": {"en": "Cancel download", "zh": "取消下载"},
    "fetch.ready": {"en": "{name} is downloaded and selected.", "zh": "{name} 已下载并选中。"},
    "fetch.listed": {
        "en": "{n} published model(s) found in the folders of ATTENTION_LAB_MODELS and the Hugging Face cache.",
        "zh": "在模型文件夹和 Hugging Face 缓存中找到 {n} 个已发布模型。",
    },
    "fetch.rescan": {"en": "Look for new models again", "zh": "重新查找模型"},
}
