"""Published models: reading checkpoints (families/), the Hub client, their tokenizers. Builds on core/."""
