print("playback-benchmark placeholder")
