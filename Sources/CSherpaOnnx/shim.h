// The part of sherpa-onnx 2.0.1's C API (sherpa-onnx/c-api/c-api.h, Apache-2.0) that spk's
// neural engine uses: offline TTS with pre-phonemized input.
//
// The library is not there at build time: it is installed with a neural voice and dlopen'ed
// (Sources/NeuralVoices/SherpaRuntime.swift), so the functions are declared as pointer types for
// dlsym, and the structs are copied from the 2.0.1 header exactly, every field in its order
// (scripts/check-sherpa-abi.sh compares their layout with a real header). The runtime refuses a
// library whose SherpaOnnxGetVersionStr() is not 2.0.1.
#ifndef SPK_SHERPA_ONNX_SHIM_H
#define SPK_SHERPA_ONNX_SHIM_H

#include <stdint.h>

#define SPK_SHERPA_ONNX_VERSION "2.0.1"

typedef struct SherpaOnnxOfflineTtsVitsModelConfig {
  const char *model;
  const char *lexicon;
  const char *tokens;
  const char *data_dir;
  float noise_scale;
  float noise_scale_w;
  float length_scale;
  const char *dict_dir;
} SherpaOnnxOfflineTtsVitsModelConfig;

typedef struct SherpaOnnxOfflineTtsMatchaModelConfig {
  const char *acoustic_model;
  const char *vocoder;
  const char *lexicon;
  const char *tokens;
  const char *data_dir;
  float noise_scale;
  float length_scale;
  const char *dict_dir;
} SherpaOnnxOfflineTtsMatchaModelConfig;

typedef struct SherpaOnnxOfflineTtsKokoroModelConfig {
  const char *model;
  const char *voices;
  const char *tokens;
  const char *data_dir;
  float length_scale;
  const char *dict_dir;
  const char *lexicon;
  const char *lang;
} SherpaOnnxOfflineTtsKokoroModelConfig;

typedef struct SherpaOnnxOfflineTtsKittenModelConfig {
  const char *model;
  const char *voices;
  const char *tokens;
  const char *data_dir;
  float length_scale;
  const char *lexicon;
} SherpaOnnxOfflineTtsKittenModelConfig;

typedef struct SherpaOnnxOfflineTtsZipvoiceModelConfig {
  const char *tokens;
  const char *encoder;
  const char *decoder;
  const char *vocoder;
  const char *data_dir;
  const char *lexicon;
  float feat_scale;
  float t_shift;
  float target_rms;
  float guidance_scale;
} SherpaOnnxOfflineTtsZipvoiceModelConfig;

typedef struct SherpaOnnxOfflineTtsPocketModelConfig {
  const char *lm_flow;
  const char *lm_main;
  const char *encoder;
  const char *decoder;
  const char *text_conditioner;
  const char *vocab_json;
  const char *token_scores_json;
  int32_t voice_embedding_cache_capacity;
} SherpaOnnxOfflineTtsPocketModelConfig;

typedef struct SherpaOnnxOfflineTtsSupertonicModelConfig {
  const char *duration_predictor;
  const char *text_encoder;
  const char *vector_estimator;
  const char *vocoder;
  const char *tts_json;
  const char *unicode_indexer;
  const char *voice_style;
} SherpaOnnxOfflineTtsSupertonicModelConfig;

typedef struct SherpaOnnxOfflineTtsModelConfig {
  SherpaOnnxOfflineTtsVitsModelConfig vits;
  int32_t num_threads;
  int32_t debug;
  const char *provider;
  SherpaOnnxOfflineTtsMatchaModelConfig matcha;
  SherpaOnnxOfflineTtsKokoroModelConfig kokoro;
  SherpaOnnxOfflineTtsKittenModelConfig kitten;
  SherpaOnnxOfflineTtsZipvoiceModelConfig zipvoice;
  SherpaOnnxOfflineTtsPocketModelConfig pocket;
  SherpaOnnxOfflineTtsSupertonicModelConfig supertonic;
} SherpaOnnxOfflineTtsModelConfig;

typedef struct SherpaOnnxOfflineTtsConfig {
  SherpaOnnxOfflineTtsModelConfig model;
  const char *rule_fsts;
  int32_t max_num_sentences;
  const char *rule_fars;
  float silence_scale;
} SherpaOnnxOfflineTtsConfig;

typedef struct SherpaOnnxGeneratedAudio {
  const float *samples;
  int32_t n;
  int32_t sample_rate;
} SherpaOnnxGeneratedAudio;

typedef int32_t (*SherpaOnnxGeneratedAudioProgressCallbackWithArg)(
    const float *samples, int32_t n, float p, void *arg);

typedef struct SherpaOnnxOfflineTts SherpaOnnxOfflineTts;

typedef struct SherpaOnnxGenerationConfig {
  float silence_scale;
  float speed;
  int32_t sid;
  const float *reference_audio;
  int32_t reference_audio_len;
  int32_t reference_sample_rate;
  const char *reference_text;
  int32_t num_steps;
  const char *extra;

  const int32_t *phoneme_codepoints;

  const int32_t *phoneme_codepoints_lens;

  int32_t phoneme_codepoints_num_sentences;

  const char *const *tokens;

  const int32_t *tokens_lens;

  int32_t tokens_num_sentences;
} SherpaOnnxGenerationConfig;

// The functions spk resolves with dlsym, as pointer types.
typedef const char *(*SpkSherpaGetVersionStr)(void);
typedef const SherpaOnnxOfflineTts *(*SpkSherpaCreateOfflineTts)(const SherpaOnnxOfflineTtsConfig *config);
typedef void (*SpkSherpaDestroyOfflineTts)(const SherpaOnnxOfflineTts *tts);
typedef int32_t (*SpkSherpaOfflineTtsSampleRate)(const SherpaOnnxOfflineTts *tts);
typedef const SherpaOnnxGeneratedAudio *(*SpkSherpaOfflineTtsGenerateWithConfig)(
    const SherpaOnnxOfflineTts *tts, const char *text, const SherpaOnnxGenerationConfig *config,
    SherpaOnnxGeneratedAudioProgressCallbackWithArg callback, void *arg);
typedef void (*SpkSherpaDestroyOfflineTtsGeneratedAudio)(const SherpaOnnxGeneratedAudio *p);

#endif
