import Haptics
print("haptics placeholder")
