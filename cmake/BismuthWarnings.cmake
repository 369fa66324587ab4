# Warnings every Bismuth target is built with. CI adds -Werror through BISMUTH_WERROR.
# -Wno-missing-field-initializers: `VkFooCreateInfo info{VK_STRUCTURE_TYPE_FOO_CREATE_INFO};` value-initialises the
# rest on purpose; it is the idiomatic way to fill Vulkan structures.
add_library(bismuth_warnings INTERFACE)
target_compile_options(bismuth_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wno-missing-field-initializers>
  $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Wpedantic -Wno-missing-field-initializers>
  $<$<BOOL:${BISMUTH_WERROR}>:-Werror>)

# bismuth_target_defaults(<target>): warnings plus the project's common settings.
function(bismuth_target_defaults target)
  target_link_libraries(${target} PRIVATE bismuth_warnings)
endfunction()
